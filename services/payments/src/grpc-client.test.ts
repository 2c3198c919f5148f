import * as grpc from "@grpc/grpc-js";
import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CreateCustomerRequestSchema,
  CreateCustomerResponseSchema,
  GetCustomerRequestSchema,
  GetCustomerResponseSchema,
  HealthCheckRequestSchema,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus,
} from "@bayad/proto";
import { createLogger, type RunningServer } from "@bayad/kit";
import { startPaymentsServer } from "./server.js";
import { readPaymentsConfig } from "./config.js";
import { createTestStore } from "@bayad/store/testing";

/** A grpc-js method definition that (de)serializes with the generated protobuf-es schemas. */
function unary<I extends DescMessage, O extends DescMessage>(path: string, input: I, output: O) {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: (message: MessageShape<I>) => Buffer.from(toBinary(input, message)),
    requestDeserialize: (bytes: Buffer) => fromBinary(input, bytes),
    responseSerialize: (message: MessageShape<O>) => Buffer.from(toBinary(output, message)),
    responseDeserialize: (bytes: Buffer) => fromBinary(output, bytes),
  };
}

const definition = {
  createCustomer: unary("/bayad.payments.v1.PaymentsService/CreateCustomer", CreateCustomerRequestSchema, CreateCustomerResponseSchema),
  getCustomer: unary("/bayad.payments.v1.PaymentsService/GetCustomer", GetCustomerRequestSchema, GetCustomerResponseSchema),
  check: unary("/grpc.health.v1.Health/Check", HealthCheckRequestSchema, HealthCheckResponseSchema),
};

type GenericClient = grpc.Client & Record<string, (...args: unknown[]) => void>;

function call<T>(client: GenericClient, method: string, request: unknown, metadata: grpc.Metadata): Promise<T> {
  return new Promise((resolve, reject) => {
    client[method]!(request, metadata, (error: grpc.ServiceError | null, response: T) =>
      error ? reject(error) : resolve(response),
    );
  });
}

function callerMetadata(projectId: string, idempotencyKey?: string): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set("bayad-project-id", projectId);
  metadata.set("bayad-environment", "test");
  metadata.set("bayad-correlation-id", "grpc-js-test");
  if (idempotencyKey) metadata.set("bayad-idempotency-key", idempotencyKey);
  return metadata;
}

describe("payments service over a standard gRPC client (@grpc/grpc-js)", () => {
  let server: RunningServer;
  let client: GenericClient;

  beforeAll(async () => {
    server = await startPaymentsServer({ store: createTestStore(), config: readPaymentsConfig({}), logger: createLogger("test", "silent") });
    const Client = grpc.makeGenericClientConstructor(definition, "PaymentsService");
    client = new Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure()) as unknown as GenericClient;
  });

  afterAll(async () => {
    client.close();
    await server.close();
  });

  it("answers grpc.health.v1 Check with SERVING", async () => {
    const response = await call<MessageShape<typeof HealthCheckResponseSchema>>(
      client, "check", create(HealthCheckRequestSchema, { service: "" }), new grpc.Metadata(),
    );
    expect(response.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  });

  it("answers NOT_FOUND for a health check of a service it does not serve", async () => {
    await expect(
      call(client, "check", create(HealthCheckRequestSchema, { service: "no.such.Service" }), new grpc.Metadata()),
    ).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it("creates a customer and reads it back", async () => {
    const created = await call<MessageShape<typeof CreateCustomerResponseSchema>>(
      client,
      "createCustomer",
      create(CreateCustomerRequestSchema, { customerReference: "ref-grpc-1", email: "juan@example.ph", name: "Juan" }),
      callerMetadata("prj_grpc", "grpc-key-0000000001"),
    );
    expect(created.customer?.customerId).toMatch(/^cus_[A-Za-z0-9]{24}$/);
    const read = await call<MessageShape<typeof GetCustomerResponseSchema>>(
      client,
      "getCustomer",
      create(GetCustomerRequestSchema, { customerId: created.customer!.customerId }),
      callerMetadata("prj_grpc"),
    );
    expect(read.customer?.email).toBe("juan@example.ph");
  });

  it("answers NOT_FOUND for another project's customer", async () => {
    const created = await call<MessageShape<typeof CreateCustomerResponseSchema>>(
      client,
      "createCustomer",
      create(CreateCustomerRequestSchema, { customerReference: "ref-grpc-2", email: "a@example.ph" }),
      callerMetadata("prj_owner", "grpc-key-0000000002"),
    );
    await expect(
      call(client, "getCustomer", create(GetCustomerRequestSchema, { customerId: created.customer!.customerId }), callerMetadata("prj_other")),
    ).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it("refuses a call without caller context", async () => {
    await expect(
      call(client, "getCustomer", create(GetCustomerRequestSchema, { customerId: "cus_x" }), new grpc.Metadata()),
    ).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
  });
});
