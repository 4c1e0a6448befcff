// Loaded with `node --import`: makes @modelcontextprotocol/sdk unresolvable, as in a project that did not install it.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@modelcontextprotocol/sdk')) {
    const error = new Error("Cannot find package '@modelcontextprotocol/sdk' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`),
);
