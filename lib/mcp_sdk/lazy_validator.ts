/**
 * An output-schema validator for the SDK's `Client` that compiles a tool's
 * schema the first time a result of that tool is checked, not when
 * `tools/list` is read. The SDK's default compiles every output schema of
 * the list at once: with every toolset on, over 600 schemas and about a
 * second of CPU per client, for tools the client may never call. Compiled
 * validators are shared by every client of the process (keyed by the
 * schema's JSON), so a second client of the same server compiles nothing.
 * The checks themselves are the SDK's own (Ajv), unchanged.
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

/** A `jsonSchemaValidator` for `new Client(info, { jsonSchemaValidator })`. */
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
