/**
 * Fastify's own schema compilers (Ajv for what comes in, fast-json-stringify for what goes out), shared
 * by every app a process builds. Fastify makes a fresh pair per instance and compiles every route's
 * schemas again: about a second of CPU per app, most of it serializers. A server builds one app, so it
 * changes nothing there; the tests build thousands, on the same schema objects, and compile each once.
 *
 * Sharing is safe because a compiled validator or serializer depends only on its schema, the external
 * schemas (the app adds none) and the compiler options, and those are part of the key.
 */
import type { FastifyServerOptions } from 'fastify';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serialize = (data: unknown) => string;
type SerializerRoute = { schema: object; method: string; url: string; httpStatus: string; contentType?: string };
type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: SerializerRoute) => Serialize;

const defaultSerializers = SerializerSelector() as unknown as SerializerFactory;
/** Per compiler setup (external schemas and options as JSON), each schema object's serializer. */
const serializers = new Map<string, WeakMap<object, Serialize>>();

function sharedSerializers(externalSchemas: unknown, options: unknown) {
  const build = defaultSerializers(externalSchemas, options);
  const key = JSON.stringify([externalSchemas ?? null, options ?? null]);
  let cache = serializers.get(key);
  if (!cache) serializers.set(key, (cache = new WeakMap()));
  const compiled = cache;
  return (route: SerializerRoute): Serialize => {
    let serialize = compiled.get(route.schema);
    if (!serialize) {
      serialize = build(route);
      compiled.set(route.schema, serialize);
    }
    return serialize;
  };
}

/**
 * Fastify's `schemaController` option. The validator side is Fastify's own pool (one Ajv per set of
 * options, which keeps what it compiled by schema object), made once for the process instead of once
 * per app.
 */
export const sharedCompilers = {
  compilersFactory: {
    buildValidator: AjvCompiler(),
    buildSerializer: sharedSerializers,
  },
} as NonNullable<FastifyServerOptions['schemaController']>;
