import type { DashboardRoute } from "../../routing";
import { OutboxPage } from "./outbox-page";
import "./outbox.css";

/** The development outbox (test mode): the OTP messages a developer needs to read. */
export const routes: DashboardRoute[] = [{ path: "/outbox", component: OutboxPage, nav: { label: "Dev outbox", order: 80 }, testModeOnly: true }];
