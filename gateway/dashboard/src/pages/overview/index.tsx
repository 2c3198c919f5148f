import type { DashboardRoute } from "../../routing";
import { OverviewPage } from "./overview-page";

export const routes: DashboardRoute[] = [{ path: "/", component: OverviewPage, nav: { label: "Overview", order: 0 } }];
