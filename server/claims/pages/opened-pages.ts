import 'server-only';
import { instructionStanding, type InstructionStanding } from '@/server/claims/instruction-proof';
import type { ClaimStatus } from '@/lib/claim-stages';
import type { StoredMachine } from '@/lib/drying';
import { recordLinkUse } from '@/server/claims/claim-links';
import { claimStatus } from '@/server/claims/claim-status';
import { machinesOf } from '@/server/claims/drying/record';
import { claimOfPage, type ClaimPageContext } from './page-context';

/** The status page by its cookie: the claim's status (its "Add photos" form posts under the page, by the same cookie). */
export async function statusBySession(
  ctx: ClaimPageContext,
  reference: string,
  session: string | undefined,
): Promise<{ status: ClaimStatus } | null> {
  const client = await ctx.db();
  const id = await claimOfPage(ctx, client, 'status', reference, session);
  if (id === null) return null;
  const status = await claimStatus(client, id);
  if (!status) return null;
  await recordLinkUse(client, id, 'status', 'opened', ctx.now());
  return { status };
}

/** The staff page's claim, with its running machines as the visit form names them (by stored id). */
export async function staffClaim(
  ctx: ClaimPageContext,
  reference: string,
  session: string | undefined,
): Promise<(ClaimStatus & { runningMachines: (StoredMachine & { id: number })[]; instruction: InstructionStanding | null }) | null> {
  const client = await ctx.db();
  const id = await claimOfPage(ctx, client, 'update', reference, session);
  if (id === null) return null;
  await recordLinkUse(client, id, 'update', 'opened', ctx.now());
  const status = await claimStatus(client, id);
  if (!status) return null;
  return {
    ...status,
    runningMachines: (await machinesOf(client, id)).filter((machine) => machine.off === null),
    instruction: await instructionStanding(client, id),
  };
}
