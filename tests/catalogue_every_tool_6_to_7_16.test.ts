/**
 * The catalogue matrix (`helpers/matrix.ts`) on simulated RouterOS 6.49.13,
 * 7.12.2, 7.15.3 and 7.16.2: every tool called once, 0 broken, and every
 * command sent held against the real command tree of the release.
 */
import { defineMatrixTests } from "./helpers/matrix.ts";

defineMatrixTests(["6.49.13", "7.12.2", "7.15.3", "7.16.2"]);
