import { MESSAGES } from '@forkvote/contracts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Deeper than any request of the API (the deepest, a vote, is 3); class-transformer recurses per level. */
export const MAX_BODY_DEPTH = 32;
const NUL = '\u0000';

/**
 * Runs after the JSON body is parsed and before validation: a body nested deeper than MAX_BODY_DEPTH (which
 * would overflow the validation pipe's stack) or text holding NUL anywhere (which PostgreSQL cannot store)
 * is refused with 400 here, whatever route it is for. Field rules (lengths in code points, other control
 * characters) are the DTOs' job, so each field keeps its own message.
 */
export function bodyGuard(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // A query string can only hold a NUL written as %00, and Express parses it again on every read of
    // req.query: only a query with one is read here.
    const query = req.url.includes('%00') ? inspect(req.query) : null;
    const problem = inspect(req.body) ?? query ?? (req.path.includes(NUL) ? 'nul' : null);
    if (!problem) return next();
    const message = problem === 'deep' ? MESSAGES.bodyTooDeep : MESSAGES.controlCharacters;
    res.status(400).json({ statusCode: 400, message, error: message });
  };
}

/** Walks a parsed body without recursion (so its own depth costs no stack). */
function inspect(root: unknown): 'deep' | 'nul' | null {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return 'nul';
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_BODY_DEPTH) return 'deep';
    for (const [key, child] of Object.entries(value)) {
      if (key.includes(NUL)) return 'nul';
      stack.push([child, depth + 1]);
    }
  }
  return null;
}
