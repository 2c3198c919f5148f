import { Link } from "wouter";

export function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <p className="breadcrumb">
      <Link href={href}>← {label}</Link>
    </p>
  );
}
