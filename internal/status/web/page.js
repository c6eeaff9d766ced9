// Refreshes the status page in place every few seconds: fetches the page
// again, and swaps the server-rendered <main> (numbers and SVG charts) for
// the new one. The page is complete without this script; the script only
// keeps it current. No inline code, so a Content-Security-Policy of 'self'
// allows it.
(function () {
  "use strict";
  var every = 3000;
  var main = document.getElementById("main");
  var live = document.getElementById("live");
  if (!main || !window.fetch || !window.DOMParser) {
    return;
  }
  var refreshes = 0;
  function mark(state, text) {
    live.dataset.state = state;
    live.textContent = text;
  }
  function refresh() {
    fetch(location.pathname, { cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (r) {
        if (!r.ok) {
          throw new Error("HTTP " + r.status);
        }
        return r.text();
      })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html").getElementById("main");
        if (!next) {
          throw new Error("no main in the page");
        }
        // Keep what the reader opened (the configuration) open.
        var open = Array.prototype.map.call(main.querySelectorAll("details[open]"), function (d) { return d.id; });
        main.replaceChildren.apply(main, Array.prototype.slice.call(next.childNodes));
        main.dataset.streams = next.dataset.streams;
        open.forEach(function (id) {
          var d = document.getElementById(id);
          if (d) { d.open = true; }
        });
        refreshes++;
        main.dataset.refreshes = String(refreshes);
        mark("live", "live · updated " + new Date().toLocaleTimeString());
      })
      .catch(function (e) {
        mark("offline", "not updating: " + e.message);
      })
      .finally(function () {
        setTimeout(refresh, every);
      });
  }
  refresh();
})();
