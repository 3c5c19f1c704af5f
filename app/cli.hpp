// The command line: subcommands, exit codes (0 ok, 2 bad usage or invalid launch, 1 other).
#pragma once

namespace threadmap {

int run_cli(int argc, char** argv);

}  // namespace threadmap
