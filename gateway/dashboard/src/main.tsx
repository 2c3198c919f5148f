import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Router } from "wouter";
import { App } from "./app";
import { WorkspaceProvider } from "./workspace";
import "./styles.css";

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not get better by asking again; a network blip might.
    queries: { retry: (failures, error) => failures < 2 && !("status" in error && Number(error.status) >= 400), staleTime: 5_000 },
  },
});

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <WorkspaceProvider>
        <Router base="/dashboard">
          <App />
        </Router>
      </WorkspaceProvider>
    </QueryClientProvider>
  </StrictMode>,
);
