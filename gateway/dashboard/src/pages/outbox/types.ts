export type { OtpDevMessage } from "../../api/schemas";
/** The code in a message's text ("Your Bayad code is 123456. …"), when there is one. */
export function codeIn(body: string): string | undefined {
  return /\b\d{4,10}\b/.exec(body)?.[0];
}
