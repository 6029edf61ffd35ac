// Identity vertical: in progress
