/**
 * Local validation of property values, before anything is sent: an address
 * that is not one, a port out of range, a duration RouterOS would refuse, a
 * value that is not in the list. Each failure is an {@linkcode ArgumentError}
 * that names the accepted form; a value the router's release lacks is an
 * {@linkcode UnsupportedError}.
 *
 * @module
 */
import { echo } from "../../echo.ts";
import { ArgumentError, UnsupportedError } from "../errors.ts";
import { describeRange, inRange, type Release } from "../release.ts";
import { enumValues, type Field, type FieldKind } from "./field.ts";
import { isIpv4, isIpv6 } from "../ip_address.ts";

const MAC = /^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}$/;

function prefixed(text: string, check: (a: string) => boolean, max: number): boolean {
  const slash = text.indexOf("/");
  if (slash < 0) return check(text);
  const len = text.slice(slash + 1);
  return check(text.slice(0, slash)) && /^\d{1,3}$/.test(len) && Number(len) <= max;
}

function isAddressSpec(text: string, family: Field["family"]): boolean {
  const one = (a: string) =>
    (family !== "ipv6" && prefixed(a, isIpv4, 32)) ||
    (family !== "ipv4" && prefixed(a, isIpv6, 128));
  const dash = text.indexOf("-");
  if (dash < 0) return one(text);
  const [from, to] = [text.slice(0, dash), text.slice(dash + 1)];
  return !from.includes("/") && !to.includes("/") && one(from) && one(to);
}

function isPorts(text: string): boolean {
  return text.split(",").every((part) => {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part);
    if (!m) return false;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    return lo <= 65535 && hi <= 65535 && lo <= hi;
  });
}

/** A RouterOS duration as it may be written: `30s`, `1d2h3m`, `500ms`, `00:05:00`, `1d00:00:00`, `90`. */
export function isDuration(text: string): boolean {
  return /^(?:\d+w)?(?:\d+d)?(?:\d{1,2}:\d{2}:\d{2}(?:\.\d+)?)$/.test(text) ||
    /^(?:\d+(?:\.\d+)?(?:w|d|h|m|s|ms|us))+$/.test(text) || /^\d+$/.test(text);
}

/** The accepted form of a kind, for messages. */
const FORMS: Record<Exclude<FieldKind, "text" | "bool" | "int" | "enum" | "list">, string> = {
  "ipv4": "an IPv4 address such as 192.168.88.1",
  "ipv4-prefix": "an IPv4 address with optional prefix length, such as 192.168.88.1/24",
  "ipv6": "an IPv6 address such as 2001:db8::1",
  "ipv6-prefix": "an IPv6 address with optional prefix length, such as 2001:db8::1/64",
  "address": "an address, prefix or range, such as 10.0.0.1, 10.0.0.0/8 or 10.0.0.1-10.0.0.9",
  "mac": "a MAC address such as AA:BB:CC:00:11:22",
  "ports": "ports 0-65535: one (22), a list (80,443) or a range (1024-65535)",
  "duration": "a duration such as 30s, 5m, 1d2h or 00:05:00",
};

function checkScalar(kind: FieldKind, field: Field, value: string): string | null {
  let v = value;
  if (field.negatable && v.startsWith("!")) v = v.slice(1);
  switch (kind) {
    case "ipv4":
      return isIpv4(v) ? null : FORMS.ipv4;
    case "ipv4-prefix":
      return prefixed(v, isIpv4, 32) ? null : FORMS["ipv4-prefix"];
    case "ipv6":
      return isIpv6(v) ? null : FORMS.ipv6;
    case "ipv6-prefix":
      return prefixed(v, isIpv6, 128) ? null : FORMS["ipv6-prefix"];
    case "address":
      return isAddressSpec(v, field.family) ? null : FORMS.address;
    case "mac":
      return MAC.test(v) ? null : FORMS.mac;
    case "ports":
      return isPorts(v) ? null : FORMS.ports;
    case "duration":
      if (field.words?.includes(v) || isDuration(v)) return null;
      return FORMS.duration + (field.words?.length ? ` or one of ${field.words.join(", ")}` : "");
    default:
      return null;
  }
}

/**
 * Check `value` (as a tool passes it: string, number, boolean or string
 * list) for `field`; throw an {@linkcode ArgumentError} naming `argument`
 * and the accepted form.
 */
export function validateValue(field: Field, argument: string | undefined, value: unknown): void {
  const fail = (form: string) => {
    throw new ArgumentError(`${echo(value)} is not ${form}`, argument);
  };
  switch (field.kind) {
    case "int": {
      if (typeof value !== "number" || !Number.isInteger(value)) fail("a whole number");
      const n = value as number;
      if (
        (field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max)
      ) {
        fail(`a whole number from ${field.min ?? "-\u221e"} to ${field.max ?? "\u221e"}`);
      }
      return;
    }
    case "bool":
      if (typeof value !== "boolean") fail("true or false");
      return;
    case "enum":
      if (typeof value !== "string" || !enumValues(field).includes(value)) {
        fail(`one of ${enumValues(field).join(", ")}`);
      }
      return;
    case "list":
      if (!Array.isArray(value)) fail("a list");
      for (const v of value as unknown[]) {
        const why = typeof v === "string" ? checkScalar(field.item ?? "text", field, v) : "text";
        if (why) {
          throw new ArgumentError(`list element ${echo(v)} is not ${why}`, argument);
        }
      }
      return;
    default: {
      if (typeof value !== "string") fail("text");
      const why = checkScalar(field.kind, field, value as string);
      if (why) fail(why);
    }
  }
}

/**
 * Check that `release` has `field` and, for an enum, the `value` given;
 * throw an {@linkcode UnsupportedError} naming the releases that do.
 */
export function checkOnRelease(
  field: Field,
  argument: string,
  value: unknown,
  release: Release,
): void {
  if (!inRange(release, field.releases)) {
    throw new UnsupportedError(
      `${argument} is not on RouterOS ${release.text}: it needs ${
        describeRange(field.releases!)
      }; leave it out`,
    );
  }
  if (field.kind === "enum" && typeof value === "string") {
    const entry = field.values?.find((v) => (typeof v === "string" ? v : v[0]) === value);
    if (entry && typeof entry !== "string" && !inRange(release, entry[1])) {
      throw new UnsupportedError(
        `${argument}=${value} is not on RouterOS ${release.text}: it needs ${
          describeRange(entry[1])
        }`,
      );
    }
  }
}
