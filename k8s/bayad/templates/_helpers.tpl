{{- /*
Names: every object is "<release>-<component>" (the gateway reaches each service at
http://<release>-<service>:<grpc port>). Helm caps release names at 53 characters and the
longest suffix, "-payments", has 9, so names stay within the 63 of a DNS label untruncated.
*/ -}}

{{- /* Labels on every object; the component label is added where the object belongs to one. */ -}}
{{- define "bayad.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{ include "bayad.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: bayad
{{- end }}

{{- /* The labels selectors use (with app.kubernetes.io/component); they never change on upgrade. */ -}}
{{- define "bayad.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "bayad.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end }}

{{- /* The Secret holding the keys: one you manage, or the chart's. */ -}}
{{- define "bayad.secretName" -}}
{{ .Values.secrets.existingSecret | default (printf "%s-secrets" .Release.Name) }}
{{- end }}

{{- /* Where MONGODB_URI comes from: mongodb.existingSecret, else the keys' Secret. */ -}}
{{- define "bayad.mongodbSecretName" -}}
{{- if .Values.mongodb.existingSecret -}}
{{ .Values.mongodb.existingSecret }}
{{- else -}}
{{ include "bayad.secretName" . }}
{{- end -}}
{{- end }}

{{- define "bayad.mongodbSecretKey" -}}
{{- if .Values.mongodb.existingSecret -}}
{{ .Values.mongodb.existingSecretKey }}
{{- else -}}
mongodb-uri
{{- end -}}
{{- end }}
