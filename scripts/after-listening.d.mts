// Types of scripts/after-listening.mjs for the TypeScript tests.
export interface AfterListeningSteps {
  register(fn: (port: number) => unknown): void;
  listening(port: number): void;
}
export function afterListeningSteps(logger?: () => { error(obj: object, msg: string): void }): AfterListeningSteps;
