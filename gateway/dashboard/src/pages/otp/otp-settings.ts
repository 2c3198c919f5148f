import { request, type Environment } from "../../api/client";
import { projectPath } from "../projects/types";
import type { OtpSettings } from "./types";

/**
 * A project's OTP settings in one environment (docs/api/otp.md, "Country permissions" and
 * "Templates"), read and written with the admin API; the defaults when none were put.
 */
export const otpSettingsPath = (projectId: string, environment: Environment) => `${projectPath(projectId)}/otp-settings/${environment}`;

export const otpSettingsQuery = (projectId: string, environment: Environment) => ({
  queryKey: ["admin", "otp-settings", projectId, environment],
  queryFn: () => request<OtpSettings>(otpSettingsPath(projectId, environment)),
});
