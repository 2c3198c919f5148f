import type { DashboardRoute } from "../../routing";

// Placeholder until this area is built.
export const routes: DashboardRoute[] = [];
