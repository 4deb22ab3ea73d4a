/**
 * Who is calling: a principal is a name, a role and the devices it may
 * touch. The name says where the identity comes from, so two sources never
 * share one (a token whose subject is "admin" is not the key named
 * "admin"): `key:<name>` for a key of the keys file, `oauth:<issuer>#<sub>`
 * for an access token, `proxy:api-key` for the REST proxy's single key and
 * `anonymous:<address>` for a peer served without credentials. Sessions
 * belong to a name, and audit lines record it. What a principal is never
 * depends on its name's shape: a peer served without credentials is marked
 * so by the transport (`anonymous`), and a principal a parent names in
 * `_meta` is only a label on the transport's (`onBehalfOf`), since the
 * client chose it. The HTTP transports and
 * the REST proxy authenticate a principal per request; the guard chain
 * (`lib/tools/guard/roles.ts`) decides with it what a call may do.
 *
 * Roles are ordered: `metrics` calls no tool and only reads the server's
 * own metrics (`/metrics`, for a Prometheus scraper); `read` calls tools
 * that only read; `operate` also writes, through every guard; `admin` also
 * calls the tools marked admin (raw commands, scripts, reboot, upgrades,
 * restore, user accounts).
 *
 * @module
 */

/** The roles, weakest first. */
export const ROLES = ["metrics", "read", "operate", "admin"] as const;

/** A role. */
export type Role = typeof ROLES[number];

/** The roles that call tools, weakest first (those an OAuth scope grants). */
export const TOOL_ROLES = ["read", "operate", "admin"] as const;

/** A role that calls tools. */
export type ToolRole = typeof TOOL_ROLES[number];

/** Devices a principal may touch: by title, or by any of their tags. */
export interface Scope {
  /** Device titles (compared ignoring case, as inventory titles are). */
  devices?: readonly string[];
  /** Inventory tags; a device carrying any of them is in scope. */
  tags?: readonly string[];
}

/** An authenticated caller. */
export interface Principal {
  /**
   * Who it is, with where the identity comes from (`key:grafana`): the
   * identity the transport authenticated, in audit lines and logs, and the
   * caller among whom a device's channels are shared.
   */
  name: string;
  role: Role;
  /** Each scope must admit a device (a narrowed principal has several); none: every device. */
  scopes?: readonly Scope[];
  /**
   * A peer the transport served without credentials (this machine's owner,
   * as on stdio): each of its sessions shares a device's channels on its
   * own. Set by the transport only, never read from `_meta`.
   */
  anonymous?: boolean;
  /**
   * The principal a parent (the REST proxy) named in `_meta` for this
   * call, narrowed into this one: a label in audit lines and refusals,
   * never an identity, since the client chose it.
   */
  onBehalfOf?: string;
}

/** Longest principal name (an OAuth issuer URL and subject together). */
export const MAX_PRINCIPAL_NAME = 512;

/** The name of the principal a key of the keys file authenticates. */
export function keyPrincipalName(keyName: string): string {
  return `key:${keyName}`;
}

/** The name of the principal an access token authenticates: its issuer and subject. */
export function tokenPrincipalName(issuer: string, subject: string): string {
  const clean = (s: string) => s.replace(/\p{Cc}/gu, "?");
  return `oauth:${clean(issuer)}#${clean(subject.slice(0, 200))}`.slice(0, MAX_PRINCIPAL_NAME);
}

/** The name of a peer served without credentials (this machine only; see lib/http/authenticate.ts). */
export function anonymousPrincipalName(peer: string): string {
  return `anonymous:${peer}`;
}

/**
 * Who a call is made for when a device's SSH channels are shared fairly:
 * a credential's principal (all its sessions together, whatever a `_meta`
 * label says), else the session. A peer served without credentials stands
 * for this machine's owner, as on stdio, so each of its sessions counts on
 * its own rather than all of them as one caller.
 */
export function channelShareKey(
  caller: { principal?: Principal; session?: string },
): string | undefined {
  const p = caller.principal;
  return p && !p.anonymous ? p.name : caller.session;
}

/** A principal for people (refusals): its name, and whom a parent said it acts for. */
export function describePrincipal(p: Principal): string {
  return p.onBehalfOf === undefined ? p.name : `${p.name} (for ${p.onBehalfOf})`;
}

/** The `_meta` key under which a parent (the REST proxy) names the principal a call is made for. */
export const PRINCIPAL_META_KEY = "io.github.mcp-server-router/principal";

/** The `_meta` key marking a tool in `tools/list` that needs a role above what its annotations say. */
export const ROLE_META_KEY = "io.github.mcp-server-router/role";

/** Whether `have` is at least `need`. */
export function roleAtLeast(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/** The weaker of two roles. */
export function weakerRole(a: Role, b: Role): Role {
  return ROLES.indexOf(a) <= ROLES.indexOf(b) ? a : b;
}

/** Whether a device (its title and tags) is inside every scope of `principal`. */
export function inScope(
  principal: Principal,
  device: { title: string; tags: readonly string[] },
): boolean {
  const title = device.title.toLowerCase();
  return (principal.scopes ?? []).every((s) =>
    (s.devices ?? []).some((d) => d.toLowerCase() === title) ||
    (s.tags ?? []).some((t) => device.tags.includes(t))
  );
}

/**
 * `inner` as `outer` may let it act: the weaker role and both scopes. A
 * parent that owns this server (stdio) passes no `outer`: what it names can
 * only take rights away, never add them. Over a transport, `outer` stays
 * who the call is (its name, its channel share, `anonymous`); `inner`'s
 * name is only the `onBehalfOf` label.
 */
export function narrow(outer: Principal | undefined, inner: Principal): Principal {
  if (!outer) return inner;
  return {
    name: outer.name,
    role: weakerRole(outer.role, inner.role),
    scopes: [...(outer.scopes ?? []), ...(inner.scopes ?? [])],
    ...(outer.anonymous ? { anonymous: true } : {}),
    onBehalfOf: inner.name,
  };
}

/** Read a principal sent in `_meta` (by the proxy); undefined when it is not a well-formed one. */
export function principalFromMeta(value: unknown): Principal | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.name !== "string" || v.name === "" || v.name.length > MAX_PRINCIPAL_NAME) {
    return undefined;
  }
  if (!(ROLES as readonly unknown[]).includes(v.role)) return undefined;
  const strings = (x: unknown) =>
    Array.isArray(x) && x.length <= 1000 && x.every((s) => typeof s === "string")
      ? x as string[]
      : undefined;
  let scopes: Scope[] | undefined;
  if (v.scopes !== undefined) {
    if (!Array.isArray(v.scopes) || v.scopes.length > 16) return undefined;
    scopes = [];
    for (const s of v.scopes) {
      if (typeof s !== "object" || s === null) return undefined;
      const r = s as Record<string, unknown>;
      const devices = r.devices === undefined ? [] : strings(r.devices);
      const tags = r.tags === undefined ? [] : strings(r.tags);
      if (!devices || !tags) return undefined;
      scopes.push({ devices, tags });
    }
  }
  return { name: v.name.replace(/\p{Cc}/gu, "?"), role: v.role as Role, scopes };
}
