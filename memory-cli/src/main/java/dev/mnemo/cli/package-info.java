/** The mnemo command line (issue #7). */
package dev.mnemo.cli;
