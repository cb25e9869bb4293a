#!/bin/sh
# SPDX-License-Identifier: MIT
# The 32-bit ARM facts the shell tool tests expect, sourced by tests/tools/arch_facts.sh: the ARM family's.
# shellcheck shell=sh source=tests/oracle/armfam/facts.sh
. "$(dirname "$fr_cpu_facts")/../armfam/facts.sh"
