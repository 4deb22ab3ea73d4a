/**
 * A JSON Schema validator for the SDK's `Client` and `Server` that builds
 * Ajv, and compiles a schema, only when something is first checked against
 * it. A client's default compiles every output schema of a tool list at
 * once when `tools/list` is read: with every toolset on, hundreds of
 * schemas per client, for tools the client may never call. A server's
 * default builds an Ajv instance for every server, at start and for each
 * HTTP session, to check elicitation
 * answers. Compiled validators are shared by every client and server of
 * the process (keyed by the schema's JSON), so a second one compiles
 * nothing. The checks themselves are the SDK's own (Ajv), unchanged.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/validation/ajv"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
// @ts-types="@modelcontextprotocol/sdk/validation"
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
  JsonSchemaValidatorResult,
} from "@modelcontextprotocol/sdk/validation";

/** A `jsonSchemaValidator` for the options of `new Client(...)` and `new Server(...)`. */
export class LazySchemaValidator implements jsonSchemaValidator {
  static #ajv: AjvJsonSchemaValidator | undefined;
  static readonly #compiled = new Map<string, JsonSchemaValidator<unknown>>();

  /** The validator of `schema`, compiled on its first use. */
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validate: JsonSchemaValidator<unknown> | undefined;
    return (input) => {
      if (!validate) {
        const key = JSON.stringify(schema);
        validate = LazySchemaValidator.#compiled.get(key);
        if (!validate) {
          LazySchemaValidator.#ajv ??= new AjvJsonSchemaValidator();
          validate = LazySchemaValidator.#ajv.getValidator(schema);
          LazySchemaValidator.#compiled.set(key, validate);
        }
      }
      return validate(input) as JsonSchemaValidatorResult<T>;
    };
  }
}
