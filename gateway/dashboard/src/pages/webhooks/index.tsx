import type { DashboardRoute } from "../../routing";
import { EndpointPage } from "./endpoint-page";
import { EndpointsPage } from "./endpoints-page";
import "./webhooks.css";

/** Webhooks: endpoints with their status, deliveries and failures; redeliver; disable or enable. */
export const routes: DashboardRoute[] = [
  { path: "/webhooks", component: EndpointsPage, nav: { label: "Webhooks", order: 60 } },
  { path: "/webhooks/:id", component: EndpointPage },
];
