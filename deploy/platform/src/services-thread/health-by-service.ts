import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport, type Transport } from "@connectrpc/connect";
import { Health, HealthCheckResponseSchema, HealthCheckResponse_ServingStatus } from "@bayad/proto";

/**
 * grpc.health.v1 for several services behind one transport, as the services thread's port carries
 * them: a check that names a service is answered by that service's own health; one that names
 * none (`""`) is SERVING only while every service is.
 */
export function healthByService(services: Array<{ typeName: string; transport: Transport }>): Transport {
  const clients = new Map(services.map(({ typeName, transport }) => [typeName, createClient(Health, transport)]));
  const statusOf = async (typeName: string) => {
    const client = clients.get(typeName);
    if (!client) throw new ConnectError(`unknown service ${typeName}`, Code.NotFound);
    return (await client.check({ service: typeName })).status;
  };
  return createRouterTransport((router) =>
    router.service(Health, {
      async check(request) {
        const names = request.service === "" ? [...clients.keys()] : [request.service];
        const statuses = await Promise.all(names.map(statusOf));
        const serving = statuses.every((status) => status === HealthCheckResponse_ServingStatus.SERVING);
        return create(HealthCheckResponseSchema, {
          status: serving ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.NOT_SERVING,
        });
      },
    }),
  );
}
