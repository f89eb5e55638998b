module catan-client-check

go 1.19
