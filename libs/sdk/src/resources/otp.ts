import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { RequestBody, Schema } from "../operation-types.js";

/** Shared one-time passcodes (service tokens only: a project API key gets 403 `SERVICE_TOKEN_REQUIRED`). */
export class Otp {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  generate(body: RequestBody<"generateOtp">, options?: CallOptions): Promise<Schema<"OtpGenerateResult">> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/shared/otp/generate", { body, params: { header }, fetch }));
  }

  verify(body: RequestBody<"verifyOtp">, options?: CallOptions): Promise<Schema<"OtpVerifyResult">> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/shared/otp/verify", { body, params: { header }, fetch }));
  }

  getStatus(otpId: string, options?: CallOptions): Promise<Schema<"OtpStatusResult">> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/shared/otp/status/{otpId}", { params: { path: { otpId } }, fetch }));
  }
}
