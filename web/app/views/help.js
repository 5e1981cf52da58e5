// `/help/https`: why the app wants HTTPS on a home network and three ways to get a certificate (the
// operations guide's section, in the app, so the insecure-address banner can link to it offline).

import { h } from "../ui/dom.js";

export function httpsHelpView() {
  const code = (/** @type {string} */ text) => h("code", {}, text);
  const element = h("article", { "aria-labelledby": "help-heading", class: "help" },
    h("h1", { id: "help-heading" }, "HTTPS on a home network"),
    h("p", {}, "Browsers treat a page at an address such as ", code("http://hearth.lan:8080"), " as insecure. There they give Hearth no ",
      "offline copy of the app, no install and no notifications; only ", code("127.0.0.1"), " and ", code("localhost"),
      " count as secure over plain HTTP. Everything else works. To use all of Hearth from phones, its operator serves it over HTTPS:"),
    h("pre", { class: "code" }, "hearth serve --host 0.0.0.0 --port 8443 \\\n  --tls-cert-file /etc/hearth/cert.pem --tls-key-file /etc/hearth/key.pem \\\n  --public-url https://hearth.lan:8443"),
    h("p", {}, "Renewed files are read again on ", code("kill -HUP"), " (no restart). A certificate comes from one of:"),
    h("ul", {},
      h("li", {}, h("strong", {}, "Tailscale: "), "on a tailnet with HTTPS enabled, ", code("tailscale cert hearth.<tailnet>.ts.net"),
        " writes a certificate every device on the tailnet trusts."),
      h("li", {}, h("strong", {}, "A reverse proxy with Let's Encrypt "), "(a name reachable from the internet): Hearth stays on plain HTTP on 127.0.0.1 and Caddy, with ",
        code("hearth.example.org { reverse_proxy 127.0.0.1:8080 }"), ", obtains and renews the certificate."),
      h("li", {}, h("strong", {}, "A local certificate authority "), "(a LAN name only you use): make one CA, trust it on each device, and sign Hearth's certificate with it (",
        code("mkcert -install"), ", then ", code("mkcert hearth.lan 192.168.1.20"), ").")),
    h("p", {}, "The operations guide (", code("docs/operations.md"), " in Hearth's source) has the details."),
    h("p", {}, h("a", { href: "/" }, "Back to Hearth")));
  return { element };
}
