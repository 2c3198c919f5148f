import { generate } from "selfsigned";

/** A certificate authority of a test's own, and a server certificate it signed for 127.0.0.1 and localhost. */
export interface TestCertificates {
  /** The authority's certificate (PEM): what a client must trust. */
  ca: string;
  /** The server's private key and certificate (PEM). */
  key: string;
  cert: string;
}

/** Made at test time (EC P-256: quick), so that no key is ever committed. */
export async function createTestCertificates(name = "Bayad test CA"): Promise<TestCertificates> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(Date.now() + 24 * 60 * 60 * 1000);
  const authority = await generate([{ name: "commonName", value: name }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate,
    ca: { key: authority.private, cert: authority.cert },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }, { type: 7, ip: "127.0.0.1" }] },
    ],
  });
  return { ca: authority.cert, key: server.private, cert: server.cert };
}
