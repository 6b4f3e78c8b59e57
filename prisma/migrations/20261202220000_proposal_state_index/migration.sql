-- Every approval asks for the proposals still at "approved" (orphaned approvals, docs/store.md step 9). The index on (projectId, state, …) cannot answer a question on state alone: without this one each approval read the whole Proposal table.
CREATE INDEX "Proposal_state_updatedAt_idx" ON "Proposal"("state", "updatedAt");
