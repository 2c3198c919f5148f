import { Link, useLocation } from "wouter";
import type { DashboardRoute } from "../routing";

/** The menu: every route with a nav entry, by order; test-mode-only ones only in test mode. */
export function NavMenu({ routes, open, testMode }: { routes: DashboardRoute[]; open: boolean; testMode: boolean }) {
  const [location] = useLocation();
  const entries = routes
    .filter((route) => route.nav && (testMode || !route.testModeOnly))
    .sort((a, b) => (a.nav?.order ?? 0) - (b.nav?.order ?? 0));
  const current = (path: string) => (path === "/" ? location === "/" : location === path || location.startsWith(`${path}/`));
  return (
    <nav id="side-nav" className={open ? "side-nav open" : "side-nav"} aria-label="Main">
      <ul>
        {entries.map((route) => (
          <li key={route.path}>
            <Link href={route.path} aria-current={current(route.path) ? "page" : undefined}>
              {route.nav?.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
