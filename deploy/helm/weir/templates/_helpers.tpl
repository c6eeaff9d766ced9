{{/* Name of the chart, or nameOverride. */}}
{{- define "weir.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name of the resources: fullnameOverride, or release-chart (release alone when it holds the chart name). */}}
{{- define "weir.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Labels that select the pods: never change them on an upgrade. */}}
{{- define "weir.selectorLabels" -}}
app.kubernetes.io/name: {{ include "weir.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of every resource. */}}
{{- define "weir.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "weir.selectorLabels" . }}
app.kubernetes.io/version: {{ (default .Chart.AppVersion .Values.image.tag) | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "weir.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "weir.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Name of the ConfigMap that holds the job file. */}}
{{- define "weir.jobConfigMap" -}}
{{- default (printf "%s-job" (include "weir.fullname" .)) .Values.job.existingConfigMap }}
{{- end }}

{{/* The inline job parsed, or an empty map when the job comes from an existing ConfigMap. */}}
{{- define "weir.inlineJob" -}}
{{- if and .Values.job.inline (not .Values.job.existingConfigMap) }}
{{- toJson (fromYaml .Values.job.inline) }}
{{- else }}
{{- "{}" }}
{{- end }}
{{- end }}

{{/* The engine block of a job: under engine, or the top level for streams given there. */}}
{{- define "weir.consumerGroup" -}}
{{- if .Values.kafka.consumerGroup }}
{{- .Values.kafka.consumerGroup }}
{{- else }}
{{- $job := include "weir.inlineJob" . | fromJson }}
{{- $engine := default dict $job.engine }}
{{- $conf := default dict $engine.configuration }}
{{- index $conf "engine.app.name" | default "" }}
{{- end }}
{{- end }}

{{/* First input topic of the first stream of the inline job, or kafka.topic. */}}
{{- define "weir.inputTopic" -}}
{{- if .Values.kafka.topic }}
{{- .Values.kafka.topic }}
{{- else }}
{{- $job := include "weir.inlineJob" . | fromJson }}
{{- $engine := default dict $job.engine }}
{{- $streams := default (default list $job.streamConfigurations) $engine.streamConfigurations }}
{{- if $streams }}
{{- $conf := default dict (first $streams).configuration }}
{{- (splitList "," (index $conf "broker.input.topics" | default "")) | first | trim }}
{{- end }}
{{- end }}
{{- end }}
