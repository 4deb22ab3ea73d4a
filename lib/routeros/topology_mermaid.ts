/**
 * A fleet graph ({@linkcode Topology}) as Mermaid flowchart text: one node
 * per device (rounded for an external one, marked when unreachable), one
 * edge per link labelled with the ports at both ends (dashed when down),
 * and a circle per shared segment (a subnet of three or more devices) with
 * an edge to each member.
 *
 * @module
 */
import type { Topology } from "./topology.ts";

/** Mermaid label text: quotes and markup characters replaced by entities. */
function label(text: string): string {
  return text.replace(/[#"<>]/g, (c) => `#${c.charCodeAt(0)};`);
}

/** The graph as a Mermaid `graph LR`. */
export function topologyMermaid(t: Topology): string {
  const ids = new Map<string, string>();
  const lines = ["graph LR"];
  t.devices.forEach((d, i) => {
    const id = `d${i}`;
    ids.set(d.name, id);
    const extra = d.external
      ? d.board ?? d.platform ?? "external"
      : d.reachable
      ? d.version ?? ""
      : "unreachable";
    const text = [d.name, extra].filter(Boolean).map(label).join("<br/>");
    lines.push(d.external ? `  ${id}("${text}")` : `  ${id}["${text}"]`);
  });
  for (const l of t.links) {
    const a = ids.get(l.a.device), b = ids.get(l.b.device);
    if (!a || !b) continue;
    const ends = `${l.a.interface ?? "?"} \u2014 ${l.b.interface ?? "?"}`;
    const text = label(l.up === false ? `${ends} (down)` : ends);
    lines.push(l.up === false ? `  ${a} -.-|"${text}"| ${b}` : `  ${a} ---|"${text}"| ${b}`);
  }
  t.subnets.filter((s) => new Set(s.members.map((m) => m.device)).size >= 3).forEach((s, i) => {
    const id = `s${i}`;
    lines.push(`  ${id}(("${label(s.prefix)}"))`);
    for (const m of s.members) {
      const d = ids.get(m.device);
      if (!d) continue;
      const text = label(`${m.interface} ${m.address}`);
      lines.push(
        m.running === false ? `  ${d} -.-|"${text}"| ${id}` : `  ${d} ---|"${text}"| ${id}`,
      );
    }
  });
  return lines.join("\n") + "\n";
}
