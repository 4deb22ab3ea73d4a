/**
 * Swagger UI for `/docs` and `/<server>/docs`, served from the
 * `swagger-ui-dist` npm package bundled into the program: its files are
 * imported as text/bytes (Deno raw imports, `"unstable": ["raw-imports"]`
 * in deno.json), so they are part of the module graph that `deno compile`
 * embeds, no CDN is contacted and nothing is read from disk at run time.
 *
 * Pages use relative links (`docs/swagger-ui.css`, `docs/openapi.json`), so
 * the proxy also works behind a reverse proxy under a path prefix, and a
 * strict Content-Security-Policy: scripts and styles only from the proxy
 * itself.
 *
 * The page stays quick with hundreds of tools: it reads the OpenAPI 3.0
 * rendition (see openapi_ui.ts), starts with the groups (tags) folded, hides
 * the list of every schema, and offers a filter box for the groups.
 *
 * @module
 */
import css from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import bundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import favicon from "swagger-ui-dist/favicon-32x32.png" with { type: "bytes" };
import license from "swagger-ui-dist/LICENSE" with { type: "text" };
import notice from "swagger-ui-dist/NOTICE" with { type: "text" };

const INIT = `window.addEventListener("load", function () {
  var el = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: el.getAttribute("data-spec"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    docExpansion: "none",
    defaultModelsExpandDepth: -1,
    filter: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    validatorUrl: null
  });
});
`;

const ASSETS: Record<string, { body: string | Uint8Array; type: string }> = {
  "swagger-ui.css": { body: css, type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { body: bundle, type: "text/javascript; charset=utf-8" },
  "init.js": { body: INIT, type: "text/javascript; charset=utf-8" },
  "favicon-32x32.png": { body: favicon, type: "image/png" },
  "LICENSE": { body: `${notice}\n\n${license}`, type: "text/plain; charset=utf-8" },
};

const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; " +
  "form-action 'none'; frame-ancestors 'none'";

/** Names of the files served under `docs/`. */
export const DOCS_ASSETS: readonly string[] = Object.keys(ASSETS);

/**
 * The Swagger UI page, for `/docs` or `/<server>/docs`: relative links
 * resolve against the page's folder, so `docs/...` lands beside it
 * (`/router/docs` loads `/router/docs/openapi.json`).
 */
export function docsPage(title: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="icon" type="image/png" href="docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui" data-spec="docs/openapi.json"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": CSP,
      "x-content-type-options": "nosniff",
      "cache-control": "no-cache",
    },
  });
}

/** A bundled Swagger UI file, or undefined when there is none by that name. */
export function docsAsset(name: string): Response | undefined {
  if (!Object.hasOwn(ASSETS, name)) return undefined;
  const asset = ASSETS[name];
  return new Response(asset.body as BodyInit, {
    headers: {
      "content-type": asset.type,
      "x-content-type-options": "nosniff",
      "cache-control": "public, max-age=3600",
    },
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
