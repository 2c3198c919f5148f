import type { DashboardRoute } from "../../routing";
import { PaymentDetailPage } from "./payment-detail-page";
import { PaymentsPage } from "./payments-page";

export const routes: DashboardRoute[] = [
  { path: "/payments", component: PaymentsPage, nav: { label: "Payments", order: 10 } },
  { path: "/payments/:id", component: PaymentDetailPage },
];
