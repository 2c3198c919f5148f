/**
 * A provider's answer body as JSON: undefined when it is empty or not JSON (a proxy's HTML page,
 * a cut-off body), which each client then judges by its status. Shared by the provider HTTP clients.
 */
export async function responseJson(body: { text(): Promise<string> }): Promise<unknown> {
  const text = await body.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
