/** An answer to a question asked over a message channel: the question's id, and why it failed, if it did. */
export type Answer = { id: number; error?: string };

/**
 * Questions and their answers over a channel that carries anything (a thread's port, a worker
 * process's IPC): each question gets an id, and the answer with that id settles it. `subscribe`
 * delivers every incoming message; `isAnswer` picks this kind's answers. An answer with an
 * `error` rejects with it; none within 2 s rejects with `silence`.
 */
export function askOver<A extends Answer>(subscribe: (onMessage: (m: unknown) => void) => void, isAnswer: (m: unknown) => m is A, silence: string) {
  let next = 0;
  const waiting = new Map<number, (a: A) => void>();
  subscribe((m) => {
    if (isAnswer(m)) waiting.get(m.id)?.(m);
  });
  /** Sends the question `send` builds with its id, and answers its answer. */
  return (send: (id: number) => void): Promise<A> => {
    const id = ++next;
    return new Promise<A>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(silence));
      }, 2_000);
      waiting.set(id, (a) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (a.error !== undefined) reject(new Error(a.error));
        else resolve(a);
      });
      try {
        send(id);
      } catch (error) {
        clearTimeout(timer);
        waiting.delete(id);
        reject(error);
      }
    });
  };
}
