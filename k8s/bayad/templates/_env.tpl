{{- /*
The environment of one component, called with
(dict "root" $ "name" <component name> "component" <its values under components>).
Keys and credentials come from Secrets through secretKeyRef, never as plain values.
Numbers go through `int` because Helm reads values as float64 and would print 1000000 as 1e+06.
*/ -}}
{{- define "bayad.env" -}}
{{- $root := .root -}}
{{- $name := .name -}}
- name: PORT
  value: {{ if eq $name "gateway" }}{{ $root.Values.ports.http | int | quote }}{{ else }}{{ $root.Values.ports.grpc | int | quote }}{{ end }}
- name: HOST
  value: "0.0.0.0"
- name: LOG_LEVEL
  value: {{ $root.Values.logLevel | quote }}
- name: SHUTDOWN_GRACE_MS
  value: {{ $root.Values.shutdownGraceMs | int | quote }}
- name: MONGODB_URI
  valueFrom:
    secretKeyRef:
      name: {{ include "bayad.mongodbSecretName" $root }}
      key: {{ include "bayad.mongodbSecretKey" $root }}
- name: MONGODB_DATABASE
  value: {{ .component.database | quote }}
{{- /* Every component serves /metrics on this port, the gateway included (never on its public port). */}}
- name: METRICS_PORT
  value: {{ $root.Values.ports.metrics | int | quote }}
{{- if eq $name "gateway" }}
{{ include "bayad.env.gateway" $root }}
{{- end }}
{{- if and (ne $name "gateway") (ne $name "otp") }}
{{- /* payments, billing, links, records and webhooks publish or consume events. */}}
- name: NATS_URL
  value: {{ required "nats.url is required" $root.Values.nats.url | quote }}
{{- with $root.Values.nats.eventsNamespace }}
- name: EVENTS_NAMESPACE
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- if or (eq $name "payments") (eq $name "billing") (eq $name "links") }}
- name: SANDBOX_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "bayad.secretName" $root }}
      key: sandbox-secret
{{ include "bayad.env.keyRing" (dict "root" $root "single" "SECRETS_KEY" "ring" "SECRETS_KEYS" "value" "secretsKeys") }}
{{- /* Payments, and the links and invoices of projects with a PayMongo or Xendit account, call PayMongo and Xendit. */}}
- name: PAYMONGO_API_BASE
  value: {{ $root.Values.paymongo.apiBase | quote }}
- name: XENDIT_API_BASE
  value: {{ $root.Values.xendit.apiBase | quote }}
{{- end }}
{{- if or (eq $name "billing") (eq $name "links") }}
{{- /* The payments service resolves a project's provider account for billing and links. */}}
- name: PAYMENTS_URL
  value: {{ printf "http://%s-payments:%d" $root.Release.Name ($root.Values.ports.grpc | int) | quote }}
{{- end }}
{{- if eq $name "payments" }}
{{- with $root.Values.gateway.publicUrl }}
{{- /* Where PayMongo delivers provider accounts' webhooks: the gateway's public URL. */}}
- name: PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- if eq $name "billing" }}
- name: BILLING_CLOCK_INTERVAL_MS
  value: {{ $root.Values.billing.clockIntervalMs | int | quote }}
- name: BILLING_CLOCK_LEASE_MS
  value: {{ $root.Values.billing.clockLeaseMs | int | quote }}
{{- end }}
{{- if eq $name "webhooks" }}
{{ include "bayad.env.webhooks" $root }}
{{- end }}
{{- if eq $name "records" }}
- name: RECORDS_CURSOR_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "bayad.secretName" $root }}
      key: records-cursor-secret
{{- end }}
{{- if eq $name "otp" }}
{{ include "bayad.env.otp" $root }}
{{- end }}
{{- with $root.Values.tracing.otlpEndpoint }}
{{- /* Traces by OTLP/HTTP, each component's spans under its own service.name. */}}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ $name | quote }}
{{- with $root.Values.tracing.otlpHeadersSecret }}
- name: OTEL_EXPORTER_OTLP_HEADERS
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $root.Values.tracing.otlpHeadersSecretKey }}
{{- end }}
{{- end }}
{{- with .component.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "bayad.env.gateway" -}}
- name: ADMIN_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "bayad.secretName" . }}
      key: admin-api-key
{{ include "bayad.env.keyRing" (dict "root" . "single" "GATEWAY_SECRET" "ring" "GATEWAY_SECRETS" "value" "gatewaySecrets") }}
- name: DEV_TOKEN_ISSUER
  value: {{ if .Values.gateway.devTokenIssuer }}"on"{{ else }}"off"{{ end }}
{{- with .Values.gateway.publicUrl }}
- name: PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{- /* Behind the chart's ingress the controller is the one hop whose X-Forwarded-For is believed. */}}
{{- with .Values.gateway.trustProxy | default (ternary "1" "" .Values.gateway.ingress.enabled) }}
- name: TRUST_PROXY
  value: {{ . | quote }}
{{- end }}
{{- with .Values.gateway.jwt.jwksUrl }}
- name: JWKS_URL
  value: {{ . | quote }}
- name: JWT_ISSUER
  value: {{ required "gateway.jwt.issuer is required with gateway.jwt.jwksUrl" $.Values.gateway.jwt.issuer | quote }}
{{- with $.Values.gateway.jwt.audience }}
- name: JWT_AUDIENCE
  value: {{ . | quote }}
{{- end }}
{{- end }}
- name: PAYMENTS_URL
  value: {{ printf "http://%s-payments:%d" .Release.Name (.Values.ports.grpc | int) | quote }}
- name: BILLING_URL
  value: {{ printf "http://%s-billing:%d" .Release.Name (.Values.ports.grpc | int) | quote }}
- name: LINKS_URL
  value: {{ printf "http://%s-links:%d" .Release.Name (.Values.ports.grpc | int) | quote }}
- name: RECORDS_URL
  value: {{ printf "http://%s-records:%d" .Release.Name (.Values.ports.grpc | int) | quote }}
- name: OTP_URL
  value: {{ printf "http://%s-otp:%d" .Release.Name (.Values.ports.grpc | int) | quote }}
- name: WEBHOOKS_URL
  value: {{ printf "http://%s-webhooks:%d" .Release.Name (.Values.ports.grpc | int) | quote }}
{{- end }}

{{- define "bayad.env.webhooks" -}}
{{- /* Seals the endpoints' signing secrets: the same key as payments, billing and links. */}}
{{ include "bayad.env.keyRing" (dict "root" . "single" "SECRETS_KEY" "ring" "SECRETS_KEYS" "value" "secretsKeys") }}
{{- /*
Hosted-page URLs inside delivered events are absolute under it, and the service refuses to start
without it: gateway.publicUrl, else (NOTES.txt warns) the gateway's Service inside the cluster.
*/}}
- name: PUBLIC_URL
  value: {{ .Values.gateway.publicUrl | default (printf "http://%s-gateway:%d" .Release.Name (.Values.gateway.service.port | int)) | quote }}
- name: WEBHOOK_RETRY_SCHEDULE
  value: {{ .Values.webhooks.retrySchedule | quote }}
- name: WEBHOOK_TIMEOUT
  value: {{ .Values.webhooks.timeout | quote }}
- name: WEBHOOK_DISABLE_AFTER
  value: {{ .Values.webhooks.disableAfter | quote }}
- name: WEBHOOK_EVENT_RETENTION
  value: {{ .Values.webhooks.eventRetention | quote }}
{{- end }}

{{- define "bayad.env.otp" -}}
{{ include "bayad.env.keyRing" (dict "root" . "single" "OTP_HASH_SECRET" "ring" "OTP_HASH_SECRETS" "value" "otpHashSecrets") }}
- name: OTP_EMAIL_SENDER
  value: {{ .Values.otp.emailSender | quote }}
- name: OTP_SMS_SENDER
  value: {{ .Values.otp.smsSender | quote }}
{{- if eq .Values.otp.emailSender "smtp" }}
- name: SMTP_HOST
  value: {{ required "otp.smtp.host is required with otp.emailSender smtp" .Values.otp.smtp.host | quote }}
- name: SMTP_PORT
  value: {{ .Values.otp.smtp.port | int | quote }}
- name: SMTP_TLS
  value: {{ .Values.otp.smtp.tls | quote }}
- name: SMTP_TLS_VERIFY
  value: {{ .Values.otp.smtp.verifyCertificate | quote }}
{{- if .Values.otp.smtp.caCertificate }}
- name: SMTP_CA_FILE
  value: /etc/bayad/smtp-ca/ca.pem
{{- end }}
- name: SMTP_FROM
  value: {{ required "otp.smtp.from is required with otp.emailSender smtp" .Values.otp.smtp.from | quote }}
{{- with .Values.otp.smtp.user }}
{{- /* SMTP_USER and SMTP_PASS go together. */}}
- name: SMTP_USER
  value: {{ . | quote }}
- name: SMTP_PASS
  valueFrom:
    secretKeyRef:
      name: {{ include "bayad.secretName" $ }}
      key: smtp-pass
{{- end }}
{{- end }}
{{- if eq .Values.otp.smsSender "semaphore" }}
- name: SEMAPHORE_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "bayad.secretName" . }}
      key: semaphore-api-key
- name: SEMAPHORE_BASE_URL
  value: {{ .Values.otp.semaphore.baseUrl | quote }}
{{- with .Values.otp.semaphore.senderName }}
- name: SEMAPHORE_SENDER_NAME
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}

{{- /* "true" when the otp pods trust authorities of their own for the SMTP server (SMTP_CA_FILE, mounted from the smtp-ca ConfigMap). */}}
{{- define "bayad.smtpCa" -}}
{{- if and (eq .Values.otp.emailSender "smtp") .Values.otp.smtp.caCertificate }}true{{ end }}
{{- end }}

{{- /*
A key ring setting (README, "Rotating keys"): the ring variable (SECRETS_KEYS, …: `<id>:<key>,…`,
newest last) when secrets.<value> gives one, or secrets.existingSecretKeyRings says the existing
Secret holds it (under the variable's name in kebab case: secrets-keys, …); else the single key.
Never both: the processes refuse a single key that the ring does not hold as its "legacy" entry,
and a finished rotation leaves it out.
*/}}
{{- define "bayad.env.keyRing" -}}
{{- $secrets := .root.Values.secrets }}
{{- $variable := .single }}
{{- range ($secrets.existingSecretKeyRings | default list) }}
{{- if not (has . (list "secrets-keys" "gateway-secrets" "otp-hash-secrets")) }}
{{- fail (printf "secrets.existingSecretKeyRings: %s is not one of secrets-keys, gateway-secrets, otp-hash-secrets" .) }}
{{- end }}
{{- end }}
{{- if $secrets.existingSecret }}
{{- if has (.ring | lower | replace "_" "-") ($secrets.existingSecretKeyRings | default list) }}{{ $variable = .ring }}{{ end }}
{{- else if index $secrets .value }}
{{- $variable = .ring }}
{{- end -}}
- name: {{ $variable }}
  valueFrom:
    secretKeyRef:
      name: {{ include "bayad.secretName" .root }}
      key: {{ $variable | lower | replace "_" "-" }}
{{- end }}
