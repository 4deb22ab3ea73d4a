/**
 * The catalogue matrix (`helpers/matrix.ts`) on simulated RouterOS 7.17,
 * 7.20.8 and 7.24: every tool called once, 0 broken, and every command sent
 * held against the real command tree of the release.
 */
import { defineMatrixTests } from "./helpers/matrix.ts";

defineMatrixTests(["7.17", "7.20.8", "7.24"]);
