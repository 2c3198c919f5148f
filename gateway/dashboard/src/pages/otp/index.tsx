import type { DashboardRoute } from "../../routing";
import { OtpSettingsPage } from "./otp-settings-page";
import "./otp.css";

/** One-time passcodes: the chosen project's OTP settings in the chosen environment. */
export const routes: DashboardRoute[] = [{ path: "/otp-settings", component: OtpSettingsPage, nav: { label: "OTP settings", order: 75 } }];
