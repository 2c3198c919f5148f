/** An address the payer opens (a hosted page), shown whole and opened in a new tab. */
export function ExternalUrl({ href }: { href: string | undefined }) {
  if (!href) return null;
  return (
    <a className="external-url" href={href} target="_blank" rel="noreferrer noopener">
      {href}
    </a>
  );
}
