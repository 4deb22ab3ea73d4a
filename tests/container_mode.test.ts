/**
 * Container entrypoint rules (`ROUTER_CONTAINER=1` or `--container`), each
 * checked on main.ts run as a real process with real environment variables.
 * The distroless image has no shell, so these rules live in the binary.
 *
 * No test here connects to a router: 192.168.88.1 and the other addresses are
 * only configured, and `router_list_devices` and `--print-config` never dial.
 * The rules' every case is unit-tested in tests/unit/config_container.test.ts;
 * here each rule a person sees gets one real run.
 */
import assert from "node:assert/strict";
import { connect, denoDir, listDevices, logLines, ROOT, runMain } from "./distribution_helpers.ts";

const ALL = ["--allow-all"];
const SECRET = "s3cret-Pa55";

interface Printed {
  fleet: boolean;
  devices: { title: string; host: string; port: number; username: string; password?: string }[];
}

/** Run with --print-config and return the resolved devices, plus stderr. */
async function printConfig(
  args: string[],
  env: Record<string, string>,
): Promise<{ config: Printed; stderr: string }> {
  const r = await runMain(ALL, ["--print-config", ...args], env);
  assert.equal(r.code, 0, r.stderr);
  return { config: JSON.parse(r.stdout), stderr: r.stderr };
}

async function withInventoryFile(
  yaml: string,
  fn: (path: string, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "container-test-" });
  const path = `${dir}/inventory.yaml`;
  await Deno.writeTextFile(path, yaml);
  try {
    await fn(path, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const FILE_INVENTORY = "- title: core\n  host: 198.51.100.10\n  port: 2201\n  username: ops\n";

Deno.test("container: without an inventory the server manages 192.168.88.1 as admin (over MCP)", async () => {
  const session = await connect(ALL, [], { ROUTER_CONTAINER: "1" });
  try {
    const devices = await listDevices(session);
    assert.deepEqual(
      devices.map((d) => [d.host, d.port, d.username]),
      [["192.168.88.1", 22, "admin"]],
    );
    assert.deepEqual(logLines(session.stderr(), "warning"), [], "no warning without a password");
  } finally {
    await session.close();
  }
});

Deno.test("container: --container applies the rules like ROUTER_CONTAINER=1, with an empty password", async () => {
  const { config } = await printConfig(["--container"], {});
  assert.equal(config.fleet, false);
  assert.equal(config.devices.length, 1);
  const [d] = config.devices;
  assert.deepEqual([d.host, d.port, d.username, d.password], ["192.168.88.1", 22, "admin", ""]);
});

Deno.test("container: an inventory file replaces the single-device variables and the default host", async () => {
  await withInventoryFile(FILE_INVENTORY, async (path) => {
    const session = await connect(ALL, [], {
      ROUTER_CONTAINER: "1",
      ROUTER_INVENTORY_FILE: path,
      ROUTER_HOST: "198.51.100.7",
      ROUTER_USERNAME: "ignored",
      ROUTER_PASSWORD: SECRET,
      ROUTER_PORT: "2222",
    });
    try {
      const devices = await listDevices(session);
      assert.deepEqual(
        devices.map((d) => [d.title, d.host, d.port, d.username]),
        [["core", "198.51.100.10", 2201, "ops"]],
      );
      const stderr = session.stderr();
      const [notice] = logLines(stderr, "info").filter((l) => l.includes("single-device"));
      assert.ok(notice, stderr);
      for (const flag of ["--host", "--username", "--password", "--port"]) {
        assert.ok(notice.includes(flag), `${flag} is named as ignored: ${notice}`);
      }
      assert.deepEqual(logLines(stderr, "warning"), [], "an ignored password draws no warning");
      assert.ok(!stderr.includes(SECRET));
    } finally {
      await session.close();
    }
  });
});

Deno.test("container: an inventory path that is a directory exits 2 and explains Docker's -v", async () => {
  const dir = await Deno.makeTempDir({ prefix: "inventory.yaml-" });
  try {
    const r = await runMain(ALL, [], { ROUTER_CONTAINER: "1", ROUTER_INVENTORY_FILE: dir });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, r.stderr);
    const [line] = lines;
    assert.ok(line.startsWith(`mcp-server-router error: inventory file ${dir} is a directory`));
    assert.match(
      line,
      /Docker creates an empty directory when the host file named in -v does not exist/,
    );
    assert.match(line, /Remove that directory on the host, create the YAML file/);
    const name = dir.slice(dir.lastIndexOf("/") + 1);
    assert.ok(line.includes(`-v "$PWD/${name}:${dir}:ro"`), line);
    assert.ok(!line.includes("    at "), "no stack trace");
  } finally {
    await Deno.remove(dir);
  }
});

Deno.test("container: a missing inventory file exits 2 with a correct -v mount and the uid", async () => {
  const path = "/config/inventory.yaml"; // the image's path; it does not exist here
  const r = await runMain(ALL, [], { ROUTER_CONTAINER: "1", ROUTER_INVENTORY_FILE: path });
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr.trim(),
    `mcp-server-router error: inventory file ${path} does not exist. Mount it read-only, e.g. ` +
      `-v "$PWD/inventory.yaml:/config/inventory.yaml:ro", and make it readable by the ` +
      `container's user (uid ${Deno.uid()}).`,
  );
});

Deno.test("container: a relative inventory path is shown as the absolute mount target", async () => {
  const r = await runMain(ALL, [], {
    ROUTER_CONTAINER: "1",
    ROUTER_INVENTORY_FILE: "no-such-dir/routers.yaml",
  });
  assert.equal(r.code, 2);
  // runMain's working directory is the repository root.
  assert.ok(
    r.stderr.includes(`-v "$PWD/routers.yaml:${ROOT}/no-such-dir/routers.yaml:ro"`),
    r.stderr,
  );
});

/**
 * Run main.ts as uid/gid 65532 (the image's nonroot user) with a private
 * copy of the Deno cache, which /root hides from other users.
 */
async function runAsNonroot(env: Record<string, string>) {
  const cache = denoDir();
  const copy = await Deno.makeTempDir({ prefix: "deno-dir-" });
  await Deno.chmod(copy, 0o755);
  // Only the npm packages: the process compiles this checkout's modules
  // again on its own (the emitted-code cache holds every file this machine
  // ever ran, far more to link than the run needs).
  const npm = [`${cache}/npm`, `${copy}/npm`];
  const cp = await new Deno.Command("cp", { args: ["-al", ...npm] }).output();
  if (!cp.success) {
    const again = await new Deno.Command("cp", { args: ["-a", ...npm] }).output();
    assert.ok(again.success, "copy the Deno npm cache");
  }
  try {
    const out = await new Deno.Command("setpriv", {
      args: [
        "--reuid=65532",
        "--regid=65532",
        "--clear-groups",
        "--",
        Deno.execPath(),
        "run",
        "--allow-all",
        new URL("../main.ts", import.meta.url).pathname,
      ],
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: "/tmp",
        DENO_DIR: copy,
        NO_COLOR: "1",
        ...env,
      },
      clearEnv: true,
      cwd: "/tmp",
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
}

const canDropPrivileges = Deno.uid() === 0 &&
  (() => {
    try {
      return new Deno.Command("setpriv", { args: ["--version"] }).outputSync().success;
    } catch {
      return false;
    }
  })();

Deno.test({
  name: "container: an unreadable inventory file exits 2 naming the uid the process runs as",
  ignore: Deno.uid() === 0 && !canDropPrivileges,
  async fn() {
    await withInventoryFile(FILE_INVENTORY, async (path, dir) => {
      await Deno.chmod(dir, 0o755);
      await Deno.chmod(path, 0o600); // owned by this user; not readable by others
      const env = { ROUTER_CONTAINER: "1", ROUTER_INVENTORY_FILE: path };
      let r;
      let uid: number;
      if (Deno.uid() === 0) {
        r = await runAsNonroot(env);
        uid = 65532;
      } else {
        await Deno.chmod(path, 0o000);
        r = await runMain(ALL, [], env);
        uid = Deno.uid()!;
      }
      assert.equal(r.code, 2, r.stderr);
      assert.equal(
        r.stderr.trim(),
        `mcp-server-router error: inventory file ${path} cannot be read (permission denied). ` +
          `Mount it read-only, e.g. -v "$PWD/inventory.yaml:${path}:ro", and make it readable ` +
          `by the container's user (uid ${uid}).`,
      );
    });
  },
});

Deno.test("container: a password in the environment draws exactly one warning, without the password", async () => {
  const session = await connect(ALL, [], {
    ROUTER_CONTAINER: "1",
    ROUTER_HOST: "198.51.100.7",
    ROUTER_PASSWORD: SECRET,
  });
  try {
    await listDevices(session); // the server is up and serving
    const stderr = session.stderr();
    const warnings = logLines(stderr, "warning");
    assert.equal(warnings.length, 1, stderr);
    assert.match(warnings[0], /ROUTER_PASSWORD is set in the environment/);
    assert.match(warnings[0], /anyone who can inspect the container/);
    assert.match(warnings[0], /mounted inventory file/);
    assert.ok(!stderr.includes(SECRET), "the password itself is never logged");
  } finally {
    await session.close();
  }
});

Deno.test("container: never starts with no devices", async () => {
  await withInventoryFile("inventory: []\n", async (path) => {
    const r = await runMain(ALL, [], { ROUTER_CONTAINER: "1", ROUTER_INVENTORY_FILE: path });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /the device list is empty; add at least one device/);
    assert.equal(r.stdout, "", "no MCP traffic: the server did not start");
  });
});
