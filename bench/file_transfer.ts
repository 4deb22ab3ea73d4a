/**
 * File transfer figures, run by hand (not part of `deno task bench`):
 * `deno run -A bench/file_transfer.ts [MiB]` starts a simulated router in
 * its own process and the server (`main.ts`, stdio) in another, uploads a
 * random file of MiB (default 20) without and with the read-back check,
 * downloads it, and prints each wall time and throughput on loopback, the
 * progress notifications received, and the server's resident memory idle
 * and at its peak (sampled every 10 ms from /proc, Linux only). The peak
 * staying flat as MiB grows is what shows the transfers stream.
 *
 * @module
 */
import { Client, LazySchemaValidator, StdioClientTransport } from "../lib/mcp_sdk/client.ts";
import { startSimProcess } from "./sim_process.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const MiB = Number(Deno.args[0] ?? 20);

function kib(pid: number, key: string): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)![1]);
}

const sim = await startSimProcess();
const dir = await Deno.makeTempDir({ prefix: "bench-files-" });
const data = new Uint8Array(MiB * 1024 * 1024);
for (let i = 0; i < data.length; i += 65536) crypto.getRandomValues(data.subarray(i, i + 65536));
await Deno.writeFile(`${dir}/big.bin`, data);
const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: [
    "run",
    "--allow-all",
    MAIN,
    ...["--toolsets", "files", "--host", sim.host, "--port", String(sim.port)],
    ...["--host-key-policy", "off", "--state-dir", `${dir}/state`, "--files-dir", dir],
  ],
  stderr: "pipe",
});
const client = new Client({ name: "bench-files", version: "1" }, {
  capabilities: {},
  jsonSchemaValidator: new LazySchemaValidator(),
});
try {
  await client.connect(transport);
  const pid = transport.pid!;
  await client.callTool({ name: "router_list_files", arguments: {} });
  await new Promise((r) => setTimeout(r, 500));
  const idle = kib(pid, "VmRSS");
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, kib(pid, "VmRSS"))), 10);
  let notifications = 0;
  const timed = async (label: string, name: string, args: Record<string, unknown>, mib: number) => {
    const t0 = performance.now();
    const r = await client.callTool({ name, arguments: args }, undefined, {
      onprogress: () => void notifications++,
    }) as { isError?: boolean; content: { text: string }[] };
    const s = (performance.now() - t0) / 1000;
    if (r.isError) throw new Error(r.content[0].text);
    console.log(
      `${label.padEnd(24)} ${s.toFixed(2)} s  ${(mib / s).toFixed(1)} MiB/s` +
        `  (server RSS peak so far ${(peak / 1024).toFixed(1)} MiB)`,
    );
  };
  await timed("upload, size check", "router_upload_file", {
    name: "big.bin",
    local_path: "big.bin",
    verify: false,
  }, MiB);
  await timed("upload and read-back", "router_upload_file", {
    name: "big.bin",
    local_path: "big.bin",
    overwrite: true,
  }, 2 * MiB);
  await timed("download", "router_download_file", { name: "big.bin", local_path: "back.bin" }, MiB);
  clearInterval(sampler);
  const back = await Deno.readFile(`${dir}/back.bin`);
  console.log(`${MiB} MiB; progress notifications: ${notifications}`);
  console.log(
    `server RSS idle ${(idle / 1024).toFixed(1)} MiB, peak ${(peak / 1024).toFixed(1)} MiB; ` +
      `byte-identical: ${back.length === data.length && back.every((b, i) => b === data[i])}`,
  );
} finally {
  await client.close();
  await sim.close();
  await Deno.remove(dir, { recursive: true });
}
