import { useQuery } from "@tanstack/react-query";
import { useActingFor, useProjectRequest } from "../../workspace";

/** A GET of the billing area, cached per project and environment under `what`. */
export function useBillingQuery<T>(what: string, path: string) {
  const projectRequest = useProjectRequest();
  const actingFor = useActingFor();
  return useQuery({
    queryKey: ["billing", actingFor?.projectId, actingFor?.environment, what, path],
    queryFn: () => projectRequest<T>(path),
  });
}
