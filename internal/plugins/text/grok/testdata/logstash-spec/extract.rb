# extract.rb turns the RSpec files of logstash-patterns-core (spec/patterns/*_spec.rb)
# into cases.json: one case per example, mode and (pattern, message), with the
# assertions the example makes on the event Logstash's grok filter produces.
#
# It does not run grok. It loads each spec file with a small stand-in for the
# part of RSpec and of Logstash's test helpers the files use; the stand-in's
# "event" records every path an example reads and every expectation placed on it.
#
#   ruby extract.rb SPEC_DIR > cases.json
#
# SPEC_DIR holds the spec files, e.g. after
#   git --git-dir=/path/logstash-patterns-core.git archive HEAD spec | tar -x
# A construct the stand-in does not know is reported on stderr and the example
# is kept with an "unextracted" note, so nothing is dropped silently.
require 'json'

$cases = {}
$order = []
$notes = []
$current = nil # [file, description, mode, pending]

# Case gathers the assertions made on one (pattern, message, options) run.
def case_for(pattern, message, opts = {})
  key = [$current[0], $current[1], $current[2], pattern, message, opts].to_json
  unless $cases[key]
    $order << key
    $cases[key] = { 'file' => $current[0], 'example' => $current[1], 'mode' => $current[2],
                    'pending' => $current[3], 'pattern' => pattern, 'message' => message,
                    'options' => opts, 'asserts' => [] }
  end
  $cases[key]
end

# Proxy stands for a value of the event at path; conv records a Ruby
# conversion (to_i, to_s) applied before comparing.
class Proxy
  attr_reader :kase, :path, :conv
  def initialize(kase, path, conv = nil)
    @kase, @path, @conv = kase, path, conv
  end
  def [](k) Proxy.new(@kase, @path + [k.to_s]) end
  def get(ref) Proxy.new(@kase, @path + ref.to_s.scan(/[^\[\]]+/)) end
  def to_hash() self end
  def keys() KeysProxy.new(@kase, @path) end
  def to_i() Proxy.new(@kase, @path, 'int') end
  def to_s() Proxy.new(@kase, @path, 'string') end
  def last() Proxy.new(@kase, @path, 'last') end
  def include?(k) raise "include? on the event" end
  def add(a) @kase['asserts'] << a.merge('path' => @path).merge(@conv ? { 'conv' => @conv } : {}) end
end
class KeysProxy < Proxy; end

class HashIncluding
  attr_reader :h
  def initialize(h) @h = h end
end

# Event is what build_event returns; filter binds it to a case.
class Event
  def initialize(message) @message = message end
  def bind(pattern, opts) @proxy = Proxy.new(case_for(pattern, @message, opts), []) end
  def to_hash() @proxy end
  def get(ref) @proxy.get(ref) end
  def [](k) @proxy[k] end
end

module LogStash; module Filters; class Grok
  def initialize(opts) @opts = opts end
  def register() end
  def filter(event)
    o = @opts.dup
    m = o.delete('match')
    event.bind(m[1], o)
  end
end; end; end

Matcher = Struct.new(:kind, :arg)

# record turns one expectation into assertions.
def record(actual, m, negate)
  if actual.is_a?(String) && m.kind == :match # expect(pattern).to match(message)
    k = case_for("%{#{actual}}", m.arg)
    k['asserts'] << { 'op' => negate ? 'nomatch' : 'match' }
    return
  end
  raise "expectation on #{actual.class}: #{m.kind}" unless actual.is_a?(Proxy)
  if actual.is_a?(KeysProxy)
    raise "keys: #{m.kind}" unless m.kind == :include
    m.arg.each { |k| actual.kase['asserts'] << { 'op' => negate ? 'absent' : 'present', 'path' => actual.path + [k.to_s] } }
    return
  end
  case m.kind
  when :pass
    actual.add('op' => negate ? 'nomatch' : 'match')
  when :eq
    if m.arg.nil?
      actual.add('op' => negate ? 'present' : 'absent')
    else
      actual.add('op' => negate ? 'ne' : 'eq', 'value' => m.arg)
    end
  when :be_a
    raise "be_a #{m.arg}" unless m.arg == Hash
    actual.add('op' => 'object')
  when :start_with, :end_with
    actual.add('op' => negate ? "not_#{m.kind}" : m.kind.to_s, 'value' => m.arg)
  when :have_key
    a = Proxy.new(actual.kase, actual.path + [m.arg.to_s])
    a.add('op' => negate ? 'absent' : 'present')
  when :match
    raise "match on a value" unless m.arg.is_a?(Regexp)
    actual.add('op' => negate ? 'not_regex' : 'regex', 'value' => m.arg.source)
  when :include
    m.arg.each do |a|
      if a.is_a?(Hash)
        if negate
          a.each do |k, v|
            raise "negated include of a nested hash" if v.is_a?(Hash) || v.is_a?(HashIncluding)
            Proxy.new(actual.kase, actual.path + [k.to_s]).add('op' => 'ne', 'value' => v)
          end
        else
          include_hash(actual, a)
        end
      elsif a.is_a?(String) && actual.path == ['tags']
        actual.kase['asserts'] << { 'op' => negate ? 'match' : 'nomatch' }
      elsif a.is_a?(String)
        # a key of a hash, an element of an array or a part of a string,
        # as the value turns out to be
        actual.add('op' => negate ? 'not_include' : 'include', 'value' => a)
      else
        raise "include #{a.inspect}"
      end
    end
  else
    raise "matcher #{m.kind}"
  end
end

# include_hash: a plain hash value must equal the sub-object exactly (its keys
# too); hash_including only checks the keys it names.
def include_hash(p, h)
  h.each do |k, v|
    q = Proxy.new(p.kase, p.path + [k.to_s])
    if k.to_s == 'tags' && p.path.empty?
      p.kase['asserts'] << { 'op' => 'nomatch' }
    elsif v.is_a?(HashIncluding)
      include_hash(q, v.h)
    elsif v.is_a?(Hash)
      q.add('op' => 'keys', 'value' => v.keys.map(&:to_s).sort)
      include_hash(q, v)
    elsif v.nil?
      q.add('op' => 'absent')
    else
      q.add('op' => 'eq', 'value' => v)
    end
  end
end

class Target
  def initialize(a) @a = a end
  def to(m) record(@a, m, false) end
  def not_to(m) record(@a, m, true) end
  alias to_not not_to
end

# Example is the context an example runs in: the lets of its groups, the mode.
class Example
  def initialize(group, mode) @group, @mode, @memo = group, mode, {} end
  def method_missing(name, *args)
    g = @group
    while g
      if (b = g.lets[name])
        return @memo[name] if @memo.key?(name)
        return @memo[name] = instance_exec(&b)
      end
      g = g.parent
    end
    super
  end
  def respond_to_missing?(*) true end
  def pattern_mode() @mode end
  def ecs_compatibility?
    case @mode when 'legacy' then false when 'ecs-v1' then true else nil end
  end
  def ecs_compatibility
    case @mode when 'legacy' then :disabled when 'ecs-v1' then :v1 else nil end
  end
  def expect(a) Target.new(a) end
  def should(m) record(subject, m, false) end
  def should_not(m) record(subject, m, true) end
  def include(*a) Matcher.new(:include, a) end
  def pass() Matcher.new(:pass) end
  def match(v) Matcher.new(:match, v) end
  def eq(v) Matcher.new(:eq, v) end
  alias eql eq
  def be(v = nil) Matcher.new(:eq, v) end
  def be_nil() Matcher.new(:eq, nil) end
  def be_a(c) Matcher.new(:be_a, c) end
  def start_with(s) Matcher.new(:start_with, s) end
  def end_with(s) Matcher.new(:end_with, s) end
  def have_key(k) Matcher.new(:have_key, k) end
  def hash_including(h) HashIncluding.new(h) end
  def pending(*) $current[3] = true end
  def grok_match(label, message, exact = false) grok_match_event(label, message, exact).to_hash end
  def grok_exact_match(label, message) grok_match(label, message, true) end
  def grok_match_event(label, message, exact = false)
    e = Event.new(message)
    e.bind(exact ? "^%{#{label}}$" : "%{#{label}}", {})
    e
  end
  def build_event(message) Event.new(message) end
  def build_grok(label, exact = false)
    LogStash::Filters::Grok.new('match' => ['message', exact ? "^%{#{label}}$" : "%{#{label}}"])
  end
end

# Group is a describe or context block.
class Group
  attr_reader :parent, :lets, :examples, :children, :desc, :modes
  def initialize(parent, args, modes)
    @parent, @desc, @modes = parent, args, modes
    @lets, @examples, @children = {}, [], []
    parent.children << self if parent
  end
  def full() (parent ? parent.full + ' ' : '') + desc.map(&:to_s).join(' ') end
  def let(n, &b) @lets[n] = b end
  def subject(n = nil, &b)
    @explicit = true
    @lets[:subject] = b
    @lets[n] = b if n
  end
  def before(*) end
  def after(*) end
  def it(desc = '', &b) @examples << [desc, b, false] end
  alias specify it
  def xit(desc = '', &b) @examples << [desc, b, true] end
  def context(*args, &b)
    g = Group.new(self, args, nil)
    g.instance_eval(&b)
  end
  alias describe context
  def include_examples(name, namespaces, opts = {})
    raise "shared examples #{name}" unless name == 'top-level namespaces'
    cond = opts[:if]
    @examples << ["event is expected to only use namespaces: #{namespaces.inspect}", proc {
      if cond.nil? || instance_exec(&cond)
        kase = subject.kase
        kase['asserts'] << { 'op' => 'toplevel', 'value' => namespaces + ['message'] }
      end
    }, false]
  end
  def mode_list() modes || (parent ? parent.mode_list : [nil]) end
end

$roots = []
def describe(*args, &b)
  g = Group.new(nil, args, [nil])
  g.lets[:subject] = proc { args.first }
  $roots << g
  g.instance_eval(&b)
end
def describe_pattern(name, modes = [nil], &b)
  g = Group.new(nil, [name], modes)
  g.lets[:pattern] = proc { name }
  g.lets[:event] = proc { grok_match_event(pattern, message) }
  g.lets[:grok] = proc { event.to_hash }
  g.lets[:subject] = proc { grok }
  g.lets[:grok_result] = proc { grok }
  g.explicit = true
  $roots << g
  g.instance_eval(&b)
end
module RSpec
  def self.describe(*a, &b) describe(*a, &b) end
end
# Nested contexts take the first description argument as subject, as RSpec's
# implicit subject does for a string.
class Group
  alias _init initialize
  def initialize(parent, args, modes)
    _init(parent, args, modes)
    @lets[:subject] = proc { args.first } if parent && args.first.is_a?(String) && !explicit_subject?
  end
  attr_accessor :explicit
  def explicit_subject?() explicit || (parent && parent.explicit_subject?) end
end

def run(g, file)
  g.examples.each do |desc, b, skipped|
    g.mode_list.each do |mode|
      $current = [file, "#{g.full} #{desc}".strip, mode || 'default', skipped]
      begin
        Example.new(g, mode).instance_exec(&b)
      rescue StandardError, ScriptError => e
        $notes << "#{file}: #{$current[1]} (#{mode}): #{e.message[0, 200]}"
        warn $notes.last
      end
    end
  end
  g.children.each { |c| run(c, file) }
end

dir = ARGV[0] or abort 'usage: ruby extract.rb SPEC_DIR'
Dir[File.join(dir, '**', '*_spec.rb')].sort.each do |f|
  $roots = []
  src = File.read(f).sub(/^require.*$/) { '' }.gsub(/^require .*$/, '')
  Object.new.instance_eval(src, f)
  rel = File.basename(f)
  $roots.each { |g| run(g, rel) }
end
puts JSON.pretty_generate('cases' => $order.map { |k| $cases[k] }, 'unextracted' => $notes)
