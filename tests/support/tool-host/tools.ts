// The commands a tool host runs, by name: each one's main function, loaded on its first call.
import type { CommandMain } from '@/scripts/support/command-io';

const TOOLS = {
  claims: async () => (await import('@/scripts/support/claims-command')).claimsMain,
  insurers: async () => (await import('@/scripts/support/insurers-command')).insurersMain,
  digest: async () => (await import('@/scripts/support/digest-command')).digestMain,
  webhooks: async () => (await import('@/scripts/support/webhooks-command')).webhooksMain,
  'portfolio-link': async () => (await import('./portfolio-link')).portfolioLinkMain,
} satisfies Record<string, () => Promise<CommandMain>>;

/** An operator command (`npm run <name>`), or `portfolio-link`, the tests' own. */
export type ToolName = keyof typeof TOOLS;

export const isToolName = (name: string): name is ToolName => Object.hasOwn(TOOLS, name);

export const toolMain = (name: ToolName): Promise<CommandMain> => TOOLS[name]();

/** What a command printed, and its exit code. */
export type ToolResult = { code: number; stdout: string; stderr: string };
