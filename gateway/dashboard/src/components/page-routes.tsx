import { Route, Switch } from "wouter";
import type { DashboardRoute } from "../routing";
import { NotFoundPage } from "../pages/not-found";
import { EmptyState } from "./states";

/** Every area's pages; a test-mode-only page in live mode says so; anything else is not found. */
export function PageRoutes({ routes, testMode }: { routes: DashboardRoute[]; testMode: boolean }) {
  return (
    <Switch>
      {routes.map((route) => (
        <Route key={route.path} path={route.path}>
          {(params) =>
            route.testModeOnly && !testMode ? (
              <EmptyState title="This page exists in test mode only.">Switch the environment to Test to see it.</EmptyState>
            ) : (
              <route.component params={params} />
            )
          }
        </Route>
      ))}
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
