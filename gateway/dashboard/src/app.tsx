import { useCallback, useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError, onSessionLost } from "./api/client";
import { currentSession, signOut } from "./api/session";
import { Shell } from "./components/shell";
import { ErrorState, Loading } from "./components/states";
import { SignInPage } from "./pages/sign-in";
import type { DashboardRoute } from "./routing";
import { routes as overview } from "./pages/overview/index";
import { routes as payments } from "./pages/payments/index";
import { routes as billing } from "./pages/billing/index";
import { routes as webhooks } from "./pages/webhooks/index";
import { routes as projects } from "./pages/projects/index";
import { routes as outbox } from "./pages/outbox/index";
import { routes as otp } from "./pages/otp/index";

const allRoutes: DashboardRoute[] = [...overview, ...payments, ...billing, ...webhooks, ...projects, ...otp, ...outbox];

type SessionState =
  | { status: "checking" }
  | { status: "unreachable"; error: unknown }
  | { status: "signed-out"; message?: string }
  | { status: "signed-in" };

/**
 * The dashboard: the sign-in page until the browser holds a session, then the shell with every
 * area's pages. Losing the session (expired, ended elsewhere) returns to sign-in with a message.
 */
export function App() {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<SessionState>({ status: "checking" });

  const check = useCallback(() => {
    setSession({ status: "checking" });
    currentSession().then(
      (found) => setSession(found ? { status: "signed-in" } : { status: "signed-out" }),
      (error: unknown) => setSession({ status: "unreachable", error }),
    );
  }, []);

  useEffect(() => {
    check();
    onSessionLost(() => {
      queryClient.clear();
      setSession({ status: "signed-out", message: "Your session has ended (it expired or was signed out elsewhere). Sign in again." });
    });
  }, [check, queryClient]);

  const leave = useCallback(async () => {
    const finish = (message: string) => {
      queryClient.clear();
      setSession({ status: "signed-out", message });
    };
    let message = "You are signed out.";
    try {
      await signOut();
    } catch (error) {
      // 401: the session had already ended.
      if (error instanceof ApiError && error.status === 401) return finish(message);
      const reason = error instanceof Error ? error.message : String(error);
      message = `The gateway could not end the session (${reason}); it ends by itself when it expires. Sign in and out again to end it now.`;
    }
    finish(message);
  }, [queryClient]);

  switch (session.status) {
    case "checking":
      return (
        <main className="content">
          <Loading what="your session" />
        </main>
      );
    case "unreachable":
      return (
        <main className="content">
          <ErrorState error={session.error} retry={check} />
        </main>
      );
    case "signed-out":
      return <SignInPage message={session.message} onSignedIn={() => setSession({ status: "signed-in" })} />;
    case "signed-in":
      return <Shell routes={allRoutes} onSignOut={leave} />;
  }
}
