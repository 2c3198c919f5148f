/** The resources of this area as the gateway answers them (gateway/openapi/openapi.yaml, Admin). */
export type { MessageLocale, OtpSettings, OtpSettingsPutRequest } from "../../api/schemas";
