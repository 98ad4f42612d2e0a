-- The GoalStore's statements: memory-store-sqlite's goals.sqlite queries over the tenant-scoped view
-- of V9. Every status is decided in Java by GoalRules; these only read, compare-and-set and add.

-- name: goal.set
-- Create or replace: a new goal id, usage reset.
INSERT INTO thread_goals (thread_id, goal_id, objective, status, token_budget, tokens_used, time_used_seconds,
        created_at_ms, updated_at_ms)
VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?)
ON CONFLICT (tenant_id, thread_id) DO UPDATE SET goal_id = excluded.goal_id, objective = excluded.objective,
    status = excluded.status, token_budget = excluded.token_budget, tokens_used = 0, time_used_seconds = 0,
    created_at_ms = excluded.created_at_ms, updated_at_ms = excluded.updated_at_ms

-- name: goal.find
SELECT thread_id, goal_id, objective, status, token_budget, tokens_used, time_used_seconds
FROM thread_goals WHERE thread_id = ?

-- name: goal.findForUpdate
-- The row a compare-and-set decides on, locked until the transaction ends.
SELECT thread_id, goal_id, objective, status, token_budget, tokens_used, time_used_seconds
FROM thread_goals WHERE thread_id = ? FOR UPDATE

-- name: goal.setStatus
UPDATE thread_goals SET status = ?, updated_at_ms = ? WHERE thread_id = ? AND goal_id = ?

-- name: goal.charge
UPDATE thread_goals SET tokens_used = tokens_used + ?, time_used_seconds = time_used_seconds + ?, status = ?,
    updated_at_ms = ?
WHERE thread_id = ? AND goal_id = ?

-- name: goal.delete
DELETE FROM thread_goals WHERE thread_id = ?
