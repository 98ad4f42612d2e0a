/** The git-baselined memory workspace: GitMemoryWorkspace (issue #4). */
package dev.mnemo.workspace.git;
