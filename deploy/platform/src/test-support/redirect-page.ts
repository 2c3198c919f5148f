import { expect } from "vitest";

/**
 * The payer on the sandbox's redirect page of an e-wallet or online-banking intent (its
 * `nextAction.url`): opens the page and presses a button, posting its form as a browser would,
 * without following the redirect back to the shop.
 */
export async function pressOnRedirectPage(url: string, button: "pay" | "fail"): Promise<Response> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
  const html = await page.text();
  const action = new RegExp(`<form class="payer" method="post" action="([^"]+)"><button id="${button}"`).exec(html)?.[1];
  expect(action, html).toBeDefined();
  return fetch(new URL(action!.replaceAll("&amp;", "&"), url), { method: "POST", redirect: "manual" });
}
