import type { DashboardRoute } from "../../routing";
import { InvoicePage } from "./invoice-page";
import { PaymentLinkPage } from "./payment-link-page";
import { PaymentLinksPage } from "./payment-links-page";
import { PlanPage } from "./plan-page";
import { PlansPage } from "./plans-page";
import { SubscriptionPage } from "./subscription-page";
import { SubscriptionsPage } from "./subscriptions-page";
import "./billing.css";

/** Payment links, plans, subscriptions and their invoices: lists and details. */
export const routes: DashboardRoute[] = [
  { path: "/payment-links", component: PaymentLinksPage, nav: { label: "Payment links", order: 30 } },
  { path: "/payment-links/:id", component: PaymentLinkPage },
  { path: "/plans", component: PlansPage, nav: { label: "Plans", order: 40 } },
  { path: "/plans/:id", component: PlanPage },
  { path: "/subscriptions", component: SubscriptionsPage, nav: { label: "Subscriptions", order: 50 } },
  { path: "/subscriptions/:id", component: SubscriptionPage },
  { path: "/invoices/:id", component: InvoicePage },
];
