/**
 * Owner-only modes for what an engine writes in its home: folders 0700, files 0600, on file systems
 * with POSIX modes.
 */
package dev.mnemo.internal.files;
