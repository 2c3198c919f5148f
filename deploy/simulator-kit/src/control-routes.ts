/** One simulator control: `POST /__simulator/refunds/:id/settle` and what it runs (a simulator's own signature). */
export interface ControlRoute<Run> {
  method: string;
  pattern: RegExp;
  run: Run;
}

/** A control at `/__simulator/<path>`, where each `:id` in `path` stands for one path segment. */
export function control<Run>(method: string, path: string, run: Run): ControlRoute<Run> {
  return { method, pattern: new RegExp(`^/__simulator/${path.replaceAll(":id", "([^/]+)")}$`), run };
}

/** The first control for this method and path, with its `:id` segments decoded; undefined when none is. */
export function matchControl<Run>(routes: readonly ControlRoute<Run>[], method: string | undefined, pathname: string): { run: Run; params: string[] } | undefined {
  for (const route of routes) {
    const match = route.method === method ? route.pattern.exec(pathname) : null;
    if (match) return { run: route.run, params: match.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}
