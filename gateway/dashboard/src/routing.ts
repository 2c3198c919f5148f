import type { ComponentType } from "react";

/**
 * One page of the dashboard. Each area (payments, billing, webhooks, projects, otp, outbox) exports
 * its routes from its folder's index.tsx; the shell (app.tsx) mounts them under /dashboard and
 * lists the ones with a `nav` entry in the menu, by `order`.
 */
export interface DashboardRoute {
  /** wouter pattern relative to /dashboard, e.g. "/payments/:id". */
  path: string;
  component: ComponentType<{ params: Record<string, string | undefined> }>;
  nav?: { label: string; order: number };
  /** Shown only in test mode (the development outbox). */
  testModeOnly?: boolean;
}
