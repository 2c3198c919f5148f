import { Link } from "wouter";
import { EmptyState } from "../components/states";

export function NotFoundPage() {
  return (
    <EmptyState title="There is no page here.">
      Check the address, or go to the <Link href="/">overview</Link>.
    </EmptyState>
  );
}
